import { flag, numberFlag, runMain, usageError } from '../harness/command-line';
import { runSoak } from './run-soak';

/** `npm run soak [-- --minutes 3] [--quick] [--hang-up-share 0.2] [--hang-up-style close|reset] [--out DIR]` */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const minutes = numberFlag(args, '--minutes', 0.1, 120);
  const hangUpShare = numberFlag(args, '--hang-up-share', 0, 1);
  const outDir = flag(args, '--out');
  const hangUpStyle = flag(args, '--hang-up-style');
  if (hangUpStyle !== undefined && hangUpStyle !== 'close' && hangUpStyle !== 'reset') {
    usageError(`--hang-up-style must be close or reset, got ${hangUpStyle}`);
  }
  const { report, files } = await runSoak({
    quick,
    ...(minutes !== undefined && { minutes }),
    ...(hangUpShare !== undefined && { hangUpShare }),
    ...(outDir !== undefined && { outDir }),
    ...(hangUpStyle !== undefined && { hangUpStyle }),
  });
  const t = report.totals;
  console.log('');
  console.log(
    `posted ${t.posted}; lost ${t.lost}; duplicated ${t.duplicated}; foreign-channel ${t.foreign}; transient missed ${t.transientMissing}`,
  );
  for (const [name, d] of Object.entries(report.latency)) {
    console.log(`latency ${name}: p50 ${d.p50} ms, p99 ${d.p99} ms (${d.count} deliveries)`);
  }
  for (const [name, s] of Object.entries({
    'legacy STOMP': report.legacyStomp,
    'JSON event-stream': report.jsonEventStream,
  })) {
    const r = s.perClient.received;
    const e = s.perClient.expected;
    console.log(
      `transient ${name}: per client min/median/max ${r.min}/${r.median}/${r.max}, expected ${e.min}/${e.median}/${e.max}`,
    );
  }
  for (const [name, r] of Object.entries(report.rss)) {
    const p = report.probe[name];
    console.log(
      `${name}: RSS start ${(r.startKb / 1024).toFixed(1)} MB, after warm-up ${(r.warmUpKb / 1024).toFixed(1)} MB, peak ${(r.peakKb / 1024).toFixed(1)} MB, end ${(r.endKb / 1024).toFixed(1)} MB; /health probe p50 ${p?.p50} ms p99 ${p?.p99} ms`,
    );
  }
  console.log('');
  for (const v of report.verdicts) {
    console.log(`${v.pass ? 'PASS' : 'MISS'}  ${v.name}: ${v.value} (target ${v.target})`);
  }
  console.log(`\nresults: ${files.markdown}, ${files.json} (${(report.durationMs / 1000).toFixed(1)} s)`);
  return report.pass ? 0 : 1;
}

runMain('soak', main);
