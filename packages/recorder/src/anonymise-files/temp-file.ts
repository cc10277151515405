import { createWriteStream, promises as fs, type WriteStream } from 'node:fs';
import path from 'node:path';

/**
 * An output written beside its final name as a hidden file (the recording loader skips names
 * starting with "."), renamed into place by commit() or removed by discard().
 */
export class TempFile {
  private constructor(
    private readonly target: string,
    private readonly temp: string,
    private readonly stream: WriteStream,
    private readonly createdDir: string | undefined,
  ) {}

  static async create(target: string): Promise<TempFile> {
    const createdDir = await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
    const stream = createWriteStream(temp, { flags: 'w' });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return new TempFile(target, temp, stream, createdDir);
  }

  async writeLine(text: string): Promise<void> {
    if (!this.stream.write(`${text}\n`)) {
      await new Promise<void>((resolve, reject) => {
        const onError = (err: Error) => reject(err);
        this.stream.once('error', onError);
        this.stream.once('drain', () => {
          this.stream.off('error', onError);
          resolve();
        });
      });
    }
  }

  async commit(): Promise<void> {
    await this.close();
    await fs.rename(this.temp, this.target);
  }

  /** Removes the temporary file, and the folders its creation made when they are left empty. */
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    await fs.rm(this.temp, { force: true });
    if (this.createdDir === undefined) return;
    let dir = path.dirname(this.target);
    for (;;) {
      // rmdir fails on a folder that is not empty: another output still lives there.
      if (
        !(await fs.rmdir(dir).then(
          () => true,
          () => false,
        ))
      )
        return;
      if (path.resolve(dir) === path.resolve(this.createdDir)) return;
      dir = path.dirname(dir);
    }
  }

  private close(): Promise<void> {
    if (this.stream.closed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }
}
