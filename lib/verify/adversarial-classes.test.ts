// The adversarial corpus (lib/verify/adversarial.test.ts): every tamper class that file does not
// run, in a file of its own so a second worker runs it beside the first.
import { TAMPER_CLASSES } from '../../test/support/adversary';
import { FIRST_FILE_CLASSES, adversarialCorpus } from '../../test/support/adversary-suite';

adversarialCorpus(
  TAMPER_CLASSES.filter((c) => !FIRST_FILE_CLASSES.includes(c)),
  false,
);
