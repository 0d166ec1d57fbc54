import { expect, it } from 'vitest';
import { BoundedCache, cachedLoad } from './bounded-cache';

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

it('cachedLoad shares one load between concurrent uses and retries after a rejection', async () => {
  const c = new BoundedCache<string, Promise<number>>(4);
  let loads = 0;
  const ok = () => Promise.resolve(++loads);
  const [a, b] = await Promise.all([cachedLoad(c, 'k', ok), cachedLoad(c, 'k', ok)]);
  expect([a, b, loads]).toEqual([1, 1, 1]);

  const failing = cachedLoad(c, 'bad', () => Promise.reject(new Error('no')));
  await expect(failing).rejects.toThrow('no');
  expect(c.get('bad')).toBeUndefined();
  expect(await cachedLoad(c, 'bad', ok)).toBe(2);
});

it('cachedLoad does not forget a newer entry when an older load rejects', async () => {
  const c = new BoundedCache<string, Promise<string>>(4);
  let reject!: (e: Error) => void;
  const old = cachedLoad(c, 'k', () => new Promise<string>((_, r) => (reject = r)));
  const fresh = Promise.resolve('fresh');
  c.set('k', fresh);
  reject(new Error('late'));
  await expect(old).rejects.toThrow('late');
  expect(c.get('k')).toBe(fresh);
});
