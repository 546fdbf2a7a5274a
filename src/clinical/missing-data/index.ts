export { checkMissingData } from './check-missing-data';
export { missingDataObservationCodes } from './element-codes';
export { MISSING_DATA_ELEMENTS } from './missing-data.types';
export type { MissingDataElement, MissingDataItem, MissingDataStatus } from './missing-data.types';
export { describePresence, PRESENCE_RULE } from './presence-rules';
export type { PresenceRule } from './presence-rules';
