// A failed page never shows a stack, "[object Object]" or a server error's redacted text.
import { describe, expect, it } from 'vitest';
import { errorText } from './error-text';

describe('errorText', () => {
  it("an Error in this browser: its message's first line, never its stack", () => {
    const e = new Error('the layout worker could not start\n    at spawn (use-layout.ts:20:12)');
    expect(errorText(e)).toEqual({ message: 'the layout worker could not start', digest: null });
    expect(errorText(new TypeError("Cannot read properties of undefined (reading 'x')")).message).toBe("Cannot read properties of undefined (reading 'x')");
  });

  it('a server error: its digest, not the message the server put in its place', () => {
    const e = Object.assign(new Error('An error occurred in the Server Components render.'), { digest: '2345678901' });
    expect(errorText(e)).toEqual({ message: null, digest: '2345678901' });
  });

  it('values that are not errors, and messages with nothing to read', () => {
    for (const thrown of [{ a: 1 }, null, undefined, 42, Symbol('s'), [], new Error(''), new Error('   '), { message: { nested: true } }])
      expect(errorText(thrown)).toEqual({ message: null, digest: null });
    expect(errorText(new Error(String({ a: 1 })))).toEqual({ message: null, digest: null });
    expect(errorText(new Error(`failed: ${String([{}])}`)).message).toBeNull();
    expect(errorText('a plain string was thrown').message).toBe('a plain string was thrown');
  });

  it('a digest that is not a reference is not shown as one', () => {
    expect(errorText({ message: 'm', digest: '<script>' })).toEqual({ message: 'm', digest: null });
    expect(errorText({ message: 'm', digest: 7 })).toEqual({ message: 'm', digest: null });
  });
});
