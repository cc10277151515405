import { flag, numberFlag, runMain, usageError } from '../harness/command-line';
import { soakMarkdown } from './report';
import { runSoak } from './run-soak';

/** `npm run soak [-- --minutes 3] [--quick] [--hang-up-share 0.2] [--hang-up-style close|reset] [--out DIR]` */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const [minutes, hangUpShare] = [
    numberFlag(args, '--minutes', 0.1, 120),
    numberFlag(args, '--hang-up-share', 0, 1),
  ];
  const [outDir, hangUpStyle] = [flag(args, '--out'), flag(args, '--hang-up-style')];
  if (hangUpStyle !== undefined && hangUpStyle !== 'close' && hangUpStyle !== 'reset') {
    usageError(`--hang-up-style must be close or reset, got ${hangUpStyle}`);
  }
  const { report, files } = await runSoak({
    quick: args.includes('--quick'),
    ...(minutes !== undefined && { minutes }),
    ...(hangUpShare !== undefined && { hangUpShare }),
    ...(outDir !== undefined && { outDir }),
    ...(hangUpStyle !== undefined && { hangUpStyle }),
  });
  console.log(
    `\n${soakMarkdown(report)}\nresults: ${files.markdown}, ${files.json} (${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  return report.pass ? 0 : 1;
}

runMain('soak', main);
