export { attributeReadmissionRisk } from './attribute-readmission-risk';
export { REPORTED_SUM_TOLERANCE, reportAttribution } from './attribution-report';
export { findIndexAdmission } from './index-admission';
export { charlsonIndex } from './charlson';
export { CHARLSON_CATEGORIES } from './charlson-value-sets';
export { READMISSION_MODEL } from './readmission-model';
export { READMISSION_FEATURES } from './readmission.types';
export type { AttributionResult, ContributionDirection, FeatureContribution, ReadmissionFeature } from './readmission.types';
