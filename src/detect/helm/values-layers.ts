import { overlay } from './subcharts.js';

/**
 * One values layer over another, as Helm merges `-f` files, where a layer that is no valid YAML
 * (`yamlValue` gave undefined) makes the whole unreadable: Helm refuses such a file, so the render
 * is not followed, never made with the layers below as if the file were not there.
 */
export function overlayRead(base: unknown, top: unknown): unknown {
  return base === undefined || top === undefined ? undefined : overlay(base, top);
}
