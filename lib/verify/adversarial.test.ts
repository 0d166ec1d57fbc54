// The adversarial corpus (issue 7): seeded variants of a valid signed log, one tamper each, in
// every tamper class, run through the command line (its `main`, in this process: argument
// parsing, file reading, the JSON report) and judged against what each variant must raise.
// The invariant: no tampered receipt or checkpoint is reported `verified`, and no untampered
// receipt is reported `failed`. Beyond it, each target's exact verdict and codes.
// ADVERSARY_SCALE multiplies the seeded draws (default 1: about 3,000 variants); ADVERSARY_SEED
// changes the seed. The page runs a sample of the same variants (e2e/adversarial.spec.ts).
// The suite is test/support/adversary-suite.ts; this file runs its basics and the classes in
// FIRST_FILE_CLASSES, adversarial-classes.test.ts every other class, so two workers share it.
import { FIRST_FILE_CLASSES, adversarialCorpus } from '../../test/support/adversary-suite';

adversarialCorpus(FIRST_FILE_CLASSES, true);
