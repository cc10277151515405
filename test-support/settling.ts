/** Records when a promise settles without awaiting it, so a test can check it is still pending. */
export function track<T>(promise: Promise<T>): {
  settled: () => boolean;
  value: () => T | undefined;
  promise: Promise<T>;
} {
  let done = false;
  let result: T | undefined;
  void promise.then((v) => {
    done = true;
    result = v;
  });
  return { settled: () => done, value: () => result, promise };
}

/** Lets chained promise callbacks run: enough turns for a resolved wait to reach its caller. */
export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
