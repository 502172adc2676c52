/** Bicep: AKS agent pools in Azure Bicep templates. */
export { bicepParser } from './bicep-parser.js';
