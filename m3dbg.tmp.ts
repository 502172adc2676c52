import { REAL_CASES, runCase } from './test/detect/real-cases.js';
const pat = process.argv[2] ?? 'nebius';
for (const c of REAL_CASES.filter((c) => c.id.includes(pat))) {
  const { result, outcome } = await runCase(c);
  console.log('##', c.id, outcome);
  for (const d of result.diagnostics) console.log('  D', d.severity, d.file, d.line, d.message.slice(0, 300));
  for (const x of result.changes) console.log('  C', x.kind, x.name, x.gpusBefore, x.gpusAfter);
  for (const cv of result.coverage ?? []) console.log('  V', JSON.stringify(cv).slice(0, 300));
}
