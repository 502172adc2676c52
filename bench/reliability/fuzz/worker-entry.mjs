// Worker threads do not inherit the parent's TypeScript loader on Node 20: register it, then load.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
