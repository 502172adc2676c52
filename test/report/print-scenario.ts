// Prints the comment of one scenario, for `npm run render-demo -- --scenario NAME`: a measured
// lever, the hostile names, or a review from the files alone (`files-only`, `insufficient-evidence`).
import type { ReviewResult } from '../../src/domain/index.js';
import { renderComment } from '../../src/report/comment.js';
import { evilMeasured } from './comments.js';
import { LEVER_SCENARIOS } from './measured-scenarios.js';
import { SCENARIOS as VERDICTS } from './scenarios.js';

const SCENARIOS: Record<string, () => ReviewResult | Promise<ReviewResult>> = {
  ...LEVER_SCENARIOS,
  'hostile-measured': evilMeasured,
  'files-only': VERDICTS['not-justified'],
  'insufficient-evidence': VERDICTS['insufficient-evidence'],
};
const name = process.argv[2] ?? '';
const scenario = SCENARIOS[name];
if (!scenario) {
  process.stderr.write(`unknown scenario "${name}"; one of: ${Object.keys(SCENARIOS).join(', ')}\n`);
  process.exit(2);
}
process.stdout.write(renderComment(await scenario(), { headUrl: 'https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567' }));
