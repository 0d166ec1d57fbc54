// The reader views' ground: a corpus log verified as the command line does it,
// turned into the explorer's rows; the verified scope must hold exactly the
// receipts the report calls verified, and count the others by verdict.
import { describe, expect, it } from 'vitest';
import { readTestdataJson, testdataPath } from '../../test/support/testdata';
import { verifiedLog } from '../../test/support/reader-log';
import { verifiedScope } from './scope';

for (const name of ['good', 'tampered-signature', 'bad-checkpoint-signature']) {
  describe(`verified scope of corpus/${name}`, () => {
    it('holds the receipts the report verified, and only those', async () => {
      const expected = readTestdataJson<{ trust_keys: string[] }>(`corpus/${name}/expected.json`);
      const { store, report } = await verifiedLog([testdataPath(`corpus/${name}`)], expected.trust_keys);
      const scope = verifiedScope(store);
      const ids = [...scope.rows].map((r) => store.str('id', r));
      expect(ids).toEqual(report.receipts.filter((r) => r.verdict === 'verified').map((r) => r.id));
      expect(scope.left.failed).toBe(report.summary.failed);
      expect(scope.left.unverified).toBe(report.summary.unverified);
      expect(scope.left.pending).toBe(0);
    });
  });
}
