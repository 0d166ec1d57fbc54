// ZeroClaw receipt strings and their HMAC, on the vectors in lib/testdata/zeroclaw
// (copied unchanged from ../shared/vectors): every HMAC vector recomputed under
// its key, every real string parsed, every must-reject string refused with a
// reason, and the malformed forms issue 8 names.
import { describe, expect, it } from 'vitest';
import { fromHex } from '../../bytes/hex';
import { parseJson } from '../../json/parse';
import { readTestdataText } from '../../../test/support/testdata';
import { hmacKey, hmacSha256, parseZcReceipt, toBase64Url, zcMacInput, zeroclawArgsJson } from './receipt';

interface HmacVector {
  key_hex: string;
  tool_name: string;
  args: unknown;
  args_canonical: string;
  result: string;
  timestamp: number;
  mac_input_utf8: string;
  receipt: string;
}

const vectors = JSON.parse(readTestdataText('zeroclaw/synthesized/hmac-test-vectors.json')) as HmacVector[];
const examples = JSON.parse(readTestdataText('zeroclaw/doc-and-test-examples.json')) as {
  valid_shape_examples: { value: string }[];
  must_reject_examples: { value: string; why: string }[];
};

/** The vector's args through our lossless parser (as a record's would be). */
function argsOf(v: HmacVector) {
  const parsed = parseJson(JSON.stringify(v.args));
  if (!parsed.ok) throw new Error(parsed.issue.message);
  return parsed.value;
}

describe('ZeroClaw HMAC vectors', () => {
  it.each(vectors.map((v) => [v.receipt, v] as const))('%s: the args as ZeroClaw writes them, the MAC input, and the tag', async (_, v) => {
    const args = zeroclawArgsJson(argsOf(v));
    expect(args).toEqual({ ok: true, text: v.args_canonical });
    const parsed = parseZcReceipt(v.receipt);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.timestamp).toBe(BigInt(v.timestamp));
    const input = zcMacInput(v.tool_name, v.args_canonical, v.result, parsed.timestamp);
    expect(new TextDecoder().decode(input)).toBe(v.mac_input_utf8);
    const tag = await hmacSha256(await hmacKey(fromHex(v.key_hex)!), input);
    expect(toBase64Url(tag)).toBe(v.receipt.slice(`zc-receipt-${v.timestamp}-`.length));
    expect(tag).toEqual(parsed.tag);
    // Any other key, or one byte of the result changed, gives another tag.
    expect(await hmacSha256(await hmacKey(new Uint8Array(32)), input)).not.toEqual(parsed.tag);
    expect(await hmacSha256(await hmacKey(fromHex(v.key_hex)!), zcMacInput(v.tool_name, v.args_canonical, `${v.result}.`, parsed.timestamp))).not.toEqual(
      parsed.tag,
    );
  });

  it('an empty result is MACed as "(no output)", as ZeroClaw replaces it', () => {
    expect(new TextDecoder().decode(zcMacInput('t', '{}', '', 5n))).toBe('t|{}|(no output)|5');
  });
});

describe('ZeroClaw receipt strings', () => {
  it.each(examples.valid_shape_examples.map((e) => e.value))('%s parses (its tag holds "-")', (s) => {
    const parsed = parseZcReceipt(s);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(toBase64Url(parsed.tag)).toBe(s.slice(s.indexOf('-', 'zc-receipt-'.length) + 1));
  });

  it.each(examples.must_reject_examples.map((e) => [e.value, e.why]))('%s is refused (%s)', (s) => {
    const parsed = parseZcReceipt(s);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(10);
  });

  const good = 'zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY';
  it.each([
    ['zc-receit-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY', /does not start with/],
    ['ZC-RECEIPT-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY', /does not start with/],
    ['zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeB', /42 characters/],
    ['zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBYA', /44 characters/],
    ['zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBZ', /last character "Z" is not canonical/],
    ['zc-receipt-1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY=', /padded/],
    ['zc-receipt-1711547700-o+VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY', /not base64url/],
    ['zc-receipt-+1711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY', /not plain decimal/],
    ['zc-receipt-01711547700-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY', /not plain decimal/],
    ['zc-receipt-18446744073709551616-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY', /larger than a u64/],
    ['zc-receipt-1711547700', /no "-"/],
  ])('%s is refused: %s', (s, why) => {
    const parsed = parseZcReceipt(s);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(why);
  });

  it('the good one it was bent from parses', () => {
    expect(parseZcReceipt(good).ok).toBe(true);
    expect(parseZcReceipt('zc-receipt-0-o-VeWF6HDZEymxexr5E8vjz_SSpj0-2oImTkQeDgeBY').ok).toBe(true);
  });
});

describe("ZeroClaw's args JSON (serde_json, keys in byte order)", () => {
  const cases: [string, string][] = [
    ['{"b":1,"a":[true,null,"x"]}', '{"a":[true,null,"x"],"b":1}'],
    ['{"z":{"y":1,"x":2}}', '{"z":{"x":2,"y":1}}'],
    ['{"n":1.0,"m":1e21,"s":1.5e-7,"t":0.001,"u":-0}', '{"m":1e21,"n":1.0,"s":1.5e-7,"t":0.001,"u":-0.0}'],
    [
      '{"big":18446744073709551615,"neg":-9223372036854775808,"f":18446744073709551616.0}',
      '{"big":18446744073709551615,"f":1.8446744073709552e19,"neg":-9223372036854775808}',
    ],
    ['{"x":12345678901234567.0,"y":1234567890123456.0,"z":0.00001,"w":0.000001}', '{"w":1e-6,"x":1.2345678901234568e16,"y":1234567890123456.0,"z":0.00001}'],
    ['{"q":"a\\"b\\\\c\\/d\\u0001\\u001f\\u007f\\n é 😀"}', '{"q":"a\\"b\\\\c/d\\u0001\\u001f\u007f\\n é 😀"}'],
    // A key past the BMP sorts after U+FFFF in byte order (JS's UTF-16 order would put it first).
    ['{"\\uffff":1,"😀":2}', '{"\uffff":1,"😀":2}'],
  ];
  it.each(cases)('%s → %s', (input, expected) => {
    const parsed = parseJson(input);
    if (!parsed.ok) throw new Error(parsed.issue.message);
    expect(zeroclawArgsJson(parsed.value)).toEqual({ ok: true, text: expected });
  });
});
