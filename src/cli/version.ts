import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in the package.json of this installation: the nearest one above this file that is
 * gpu-justify's (the file sits in src/cli or dist/cli of the package, at whatever depth npm put it).
 */
export function packageVersion(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'gpu-justify' && typeof manifest.version === 'string') return manifest.version;
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
