import { FrameMemory } from '../src/stomp/frame-memory';

describe('FrameMemory', () => {
  it('gives the same memory again when the last frame was not kept', () => {
    const memory = new FrameMemory();
    const first = memory.take(100);
    const second = memory.take(80);
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteOffset).toBe(first.byteOffset);
  });

  it('hands the same view out again for a frame of the same size, none made per frame', () => {
    const memory = new FrameMemory();
    const first = memory.take(459);
    expect(memory.take(459)).toBe(first);
    expect(memory.take(460)).not.toBe(first);
    const kept = memory.take(460);
    memory.keep(kept);
    expect(memory.take(460)).not.toBe(kept);
  });

  it('never hands out a kept frame again, within the slab or after it is full', () => {
    const memory = new FrameMemory();
    const kept: Buffer[] = [];
    for (let i = 0; i < 200; i++) {
      const frame = memory.take(1000);
      frame.fill(i);
      memory.keep(frame);
      kept.push(frame);
    }
    // Another frame written over the unkept memory leaves every kept frame as it was.
    memory.take(1000).fill(255);
    kept.forEach((frame, i) => expect(frame.every((byte) => byte === i)).toBe(true));
  });

  it('gives a large frame a buffer of its own', () => {
    const memory = new FrameMemory();
    const small = memory.take(10);
    const large = memory.take(40_000);
    expect(large.length).toBe(40_000);
    expect(large.buffer).not.toBe(small.buffer);
    memory.keep(large);
    expect(memory.take(10).byteOffset).toBe(small.byteOffset);
  });
});
