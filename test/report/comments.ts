import { demoCommand } from '../../src/cli/commands/demo.js';
import { renderComment } from '../../src/report/comment.js';
import { LEVER_SCENARIOS, manyMeasured } from './measured-scenarios.js';
import { catalog, queueFile, review, SCENARIOS } from './scenarios.js';

/** The ```mermaid blocks of a comment, in order, without their fences. */
export function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

/** What `gpu-justify demo` prints: the comment for the shipped example PR. */
export async function demoComment(): Promise<string> {
  let text = '';
  const code = await demoCommand([], { stdout: (t) => (text += t), stderr: () => undefined });
  if (code !== 0) throw new Error(`demo exited ${code}`);
  return text;
}

const EVIL = '<img src=x onerror=alert(1)>|b:c;d#e%%{init}%%"q"\n`x`';

/** A not-justified review of a queue whose workload is named to break markdown, HTML and mermaid. */
export function evilReview() {
  return review(
    { 'q.yaml': queueFile(4), 'gpu-workloads.yaml': catalog(EVIL.replace(/["\n]/g, ' ')) },
    { 'q.yaml': queueFile(8), 'gpu-workloads.yaml': catalog(EVIL.replace(/["\n]/g, ' ')) },
    { headroom: 0 },
  );
}

/** Measured workloads named to break markdown, HTML and mermaid, one of them twice over. */
export function evilMeasured() {
  return manyMeasured(3, (i) => (i === 2 ? `${EVIL} ${'z'.repeat(100)}` : EVIL.replace(/\n/g, ' ') + (i === 0 ? '' : ' ')));
}

/** Every comment the browser tests draw: the demo, one per verdict, one per measured lever, and the hostile names. */
export async function allComments(): Promise<[string, string][]> {
  const headUrl = 'https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567';
  const out: [string, string][] = [['demo', await demoComment()]];
  for (const [verdict, scenario] of Object.entries(SCENARIOS)) out.push([verdict, renderComment(await scenario(), { headUrl })]);
  for (const [lever, scenario] of Object.entries(LEVER_SCENARIOS)) out.push([`lever ${lever}`, renderComment(scenario(), { headUrl })]);
  out.push(['hostile names', renderComment(await evilReview(), { headUrl })]);
  out.push(['hostile measured names', renderComment(evilMeasured(), { headUrl })]);
  return out;
}
