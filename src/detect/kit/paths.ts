/** The folder of a repository path, `''` for the root: `a/b/c.yaml` → `a/b`. */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
