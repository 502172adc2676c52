import { restartCatalogLines } from '../factories.js';

// Run before each unit test file (vitest.config.ts `setupFiles`): the files share one module
// graph per worker, so state a shared helper counts per file starts again here, as it would
// in a fresh graph. test/suite/shared-state.test.ts names the helpers that need it.
restartCatalogLines();
