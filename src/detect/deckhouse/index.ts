/** Deckhouse Kubernetes Platform NodeGroups and their instance classes. */
export { deckhouseNodeGroupParser } from './deckhouse-nodegroup.js';
