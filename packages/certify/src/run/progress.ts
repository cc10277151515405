import type { CertifyTimings, CheckInfo, CheckResult, Evidence, Suite } from '../types';

/** The variables a client is started with (and, with --attach, printed for one started by hand). */
export type ClientVariables = Readonly<Record<string, string>>;

/** What a run reports while it goes, for the terminal's progress and the console. */
export type ProgressEvent =
  | {
      readonly type: 'suite-start';
      readonly suite: Suite;
      readonly timings: CertifyTimings;
      readonly variables: ClientVariables;
      /** Whether certify waits for a client started by hand (--attach). */
      readonly attach: boolean;
      /** The QA console's address on this suite's simulator, when the console is served. */
      readonly console?: string;
    }
  | { readonly type: 'client-ready'; readonly suite: Suite; readonly afterMs: number }
  | {
      readonly type: 'scenario-start';
      readonly suite: Suite;
      readonly name: string;
      readonly checks: readonly CheckInfo[];
    }
  | { readonly type: 'check'; readonly suite: Suite; readonly result: CheckResult }
  | {
      /** Traffic that was not the certified client's (--attach), as it grows and at the suite's end. */
      readonly type: 'foreign';
      readonly suite: Suite;
      readonly count: number;
      readonly sample: readonly Evidence[];
      /** The suite's total, sent once before suite-end. */
      readonly final: boolean;
    }
  | { readonly type: 'suite-end'; readonly suite: Suite; readonly aborted?: string };
