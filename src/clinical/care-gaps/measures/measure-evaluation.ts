import { DataQualityNote } from '../care-gap.types';
import { MeasureContext } from '../cql/retrieve';
import { GroupCriteria } from '../population-rules';

/** What a measure's logic returns: each population group's criteria, and notes on the data it read. */
export interface MeasureEvaluation {
  groups: GroupCriteria[];
  dataQuality: DataQualityNote[];
}

export type MeasureLogic = (ctx: MeasureContext) => MeasureEvaluation;
