// A cap on `parse_error` problems per file (contract §7; issue 7 "big and
// broken input"). A damaged or hostile file can hold millions of unreadable
// lines; the report keeps the first MAX_PARSE_ERRORS_PER_FILE of each file (by
// line, so the result does not depend on which worker answered first) and one
// summary `parse_error` for the rest, counted exactly: "… and N more lines in
// <file> could not be parsed (first at line X, last at line Y)". Memory is
// bounded by the cap, whatever the file holds. Problems with no file or no line
// are not capped. The log assembler caps every code this way (problem-cap.ts);
// this is that cap for parse errors alone.
import { MAX_PROBLEMS_PER_CODE_AND_FILE, ProblemCap } from './problem-cap';

export const MAX_PARSE_ERRORS_PER_FILE = MAX_PROBLEMS_PER_CODE_AND_FILE;

export class ParseErrorCap extends ProblemCap {
  constructor(max = MAX_PARSE_ERRORS_PER_FILE) {
    super(max, (p) => p.code === 'parse_error');
  }
}
