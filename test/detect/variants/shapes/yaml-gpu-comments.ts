import type { Rewrite } from '../rewrite.js';
import { mapKubeFiles } from './kube-files.js';

/** Comments naming GPU resources, machines and counts: none of them is applied. */
const NOTE = [
  '# capacity notes: was nvidia.com/gpu: 128 on p4d.24xlarge, then a3-highgpu-8g (8x H100)',
  '#   nominalQuota: 64   # amd.com/gpu, Standard_ND96asr_v4',
];

/** Comments that name GPUs at the top of each file, at its end, and after every `---`. */
export const yamlGpuComments: Rewrite = {
  id: 'yaml-gpu-comments',
  what: 'comments naming GPUs, machines and counts around the objects',
  apply: (sides) =>
    mapKubeFiles(sides, (_docs, _path, text) => {
      const note = NOTE.join('\n');
      return `${note}\n${text.replace(/^---[ \t]*$/gm, `---\n${note}`).replace(/\n*$/, '\n')}${note}\n`;
    }),
};
