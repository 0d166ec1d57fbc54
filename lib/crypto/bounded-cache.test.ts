import { expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache';

it('evicts the least recently used entry beyond its bound', () => {
  const c = new BoundedCache<string, number>(2);
  c.set('a', 1);
  c.set('b', 2);
  expect(c.get('a')).toBe(1); // a is now most recent
  c.set('c', 3);
  expect(c.get('b')).toBeUndefined();
  expect([c.get('a'), c.get('c'), c.size]).toEqual([1, 3, 2]);
});

it('keeps falsy values such as null verdicts', () => {
  const c = new BoundedCache<string, null | string>(4);
  c.set('k', null);
  expect(c.get('k')).toBeNull();
});

it('rejects a non-positive bound', () => {
  expect(() => new BoundedCache(0)).toThrow(RangeError);
});
