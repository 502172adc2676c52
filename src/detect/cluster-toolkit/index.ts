/** Google Cluster Toolkit blueprints: GKE node pools declared as blueprint modules. */
export { clusterToolkitParser } from './cluster-toolkit.js';
