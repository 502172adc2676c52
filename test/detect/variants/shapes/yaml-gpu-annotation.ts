import { isMap, YAMLMap } from 'yaml';
import type { Rewrite } from '../rewrite.js';
import { docText } from '../yaml-text.js';
import { mapKubeFiles } from './kube-files.js';

/** An annotation on every object whose text names a GPU, a machine and a count: metadata, no capacity. */
export const yamlGpuAnnotation: Rewrite = {
  id: 'yaml-gpu-annotation',
  what: 'an annotation naming GPUs and a count on every object',
  apply: (sides) =>
    mapKubeFiles(sides, (docs) => {
      for (const doc of docs) {
        const metadata = doc.get('metadata', true);
        if (!isMap(metadata)) return null;
        let annotations: unknown = metadata.get('annotations', true);
        if (!isMap(annotations)) {
          annotations = new YAMLMap();
          metadata.set('annotations', annotations);
        }
        (annotations as YAMLMap).set('gpu-justify.test/sizing', 'nvidia.com/gpu: 64 on 8 x p5.48xlarge (H100)');
      }
      return docs.map(docText).join('---\n');
    }),
};
