import { flag, numberFlag, runMain, usageUnless } from '../harness/command-line';
import { soakMarkdown } from './report';
import { runSoak } from './run-soak';

/** `npm run soak [-- --minutes 3] [--quick] [--hang-up-share 0.2] [--hang-up-style close|reset]` */
runMain('soak', async () => {
  const args = process.argv.slice(2);
  const hangUpStyle = flag(args, '--hang-up-style') as 'close' | 'reset' | undefined;
  const styles = [undefined, 'close', 'reset'];
  usageUnless(styles.includes(hangUpStyle), `--hang-up-style must be close or reset, got ${hangUpStyle}`);
  const { report, files } = await runSoak({
    ...{ quick: args.includes('--quick'), minutes: numberFlag(args, '--minutes', 0.1, 120) },
    ...{ hangUpShare: numberFlag(args, '--hang-up-share', 0, 1), hangUpStyle },
  });
  const took = `${(report.durationMs / 1000).toFixed(1)} s`;
  console.log(`\n${soakMarkdown(report)}\nresults: ${files.markdown}, ${files.json} (${took})`);
  return report.pass ? 0 : 1;
});
