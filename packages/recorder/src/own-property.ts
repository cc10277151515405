/**
 * Sets a key as an own, enumerable property. Plain assignment of `__proto__` (which JSON.parse
 * gives as an ordinary key) would change the object's prototype and lose the field.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
