import { Type } from '@nestjs/common';
import { PatientChart, PatientRow } from '../../cohort/chart.types';
import type { CohortRead } from '../../cohort/cohort.repository';
import { ToolOutput } from '../envelope';
import { ToolName } from '../tool-names';

/**
 * A read tool: a name, the closed DTO its arguments must satisfy (the same class validates HTTP
 * queries, documents OpenAPI and, later, describes the tool to a model), and its execution for one
 * patient the caller has already been granted, reading through `read`: the open read the access
 * check ran in, so the check, the tool's statements and the patient header share one transaction.
 */
export interface Tool<Query extends object = object> {
  readonly name: ToolName;
  readonly summary: string;
  readonly queryDto: Type<Query>;
  execute(read: CohortRead, patientId: string, query: Query): Promise<ToolOutput & { patient?: PatientRow }>;
  /**
   * Whether the patient has the data this tool is about (absent: always). A surface that lists tools
   * per patient (MCP) leaves out a tool that could only answer "nothing to evaluate".
   */
  availableFor?(chart: PatientChart): boolean;
}
