import { MeasureResult } from './measure-result.entity';
import { MeasureRun, MeasureRunChunk } from './measure-run.entity';

export { MeasureResult, MeasureRun, MeasureRunChunk };

export const MEASURE_RESULT_ENTITIES = [MeasureResult, MeasureRun, MeasureRunChunk];
