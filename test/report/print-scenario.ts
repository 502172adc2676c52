// Prints the comment of one measured lever scenario, for `npm run render-demo -- --scenario NAME`.
import { renderComment } from '../../src/report/comment.js';
import { evilMeasured } from './comments.js';
import { LEVER_SCENARIOS } from './measured-scenarios.js';

const SCENARIOS: Record<string, () => ReturnType<typeof evilMeasured>> = { ...LEVER_SCENARIOS, 'hostile-measured': evilMeasured };
const name = process.argv[2] ?? '';
const scenario = SCENARIOS[name];
if (!scenario) {
  process.stderr.write(`unknown scenario "${name}"; one of: ${Object.keys(SCENARIOS).join(', ')}\n`);
  process.exit(2);
}
process.stdout.write(renderComment(scenario(), { headUrl: 'https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567' }));
