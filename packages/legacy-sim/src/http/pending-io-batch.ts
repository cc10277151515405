/** Something to run once the I/O already waiting for the process has been read. */
export interface AfterIo {
  afterIo(): void;
}

/**
 * core's afterPendingIo for many callers at once: every task queued before the first of the two
 * setImmediate turns runs shares them, and gets the same guarantee (an I/O poll of the event loop
 * between its queueing and its run). A message posted to every user answers hundreds of held
 * polls in one go; two immediates and a promise per poll were a visible part of each delivery.
 */
export class PendingIoBatch {
  private queued: AfterIo[] = [];
  private scheduled = false;

  run(task: AfterIo): void {
    this.queued.push(task);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      // Tasks queued from here on wait for a batch of their own.
      const batch = this.queued;
      this.queued = [];
      this.scheduled = false;
      setImmediate(() => {
        for (const task of batch) task.afterIo();
      });
    });
  }
}
