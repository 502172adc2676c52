/** eksctl ClusterConfig: managed and self-managed node groups. */
export { eksctlParser } from './eksctl.js';
