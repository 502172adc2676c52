/** CloudFormation: self-managed EKS node groups (AutoScalingGroups and their launch templates). */
export { cloudFormationParser } from './cloudformation.js';
