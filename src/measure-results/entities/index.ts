import { MeasureResultFailure } from './measure-result-failure.entity';
import { MeasureResult } from './measure-result.entity';
import { MeasureRun, MeasureRunChunk } from './measure-run.entity';

export { MeasureResult, MeasureResultFailure, MeasureRun, MeasureRunChunk };

export const MEASURE_RESULT_ENTITIES = [MeasureResult, MeasureResultFailure, MeasureRun, MeasureRunChunk];
