import { Type } from '@nestjs/common';
import { PatientChart, PatientRow } from '../../cohort/chart.types';
import type { AccessGate, CohortRead } from '../../cohort/cohort.repository';
import { ToolOutput } from '../envelope';
import { ToolName } from '../tool-names';

/**
 * A read tool: a name, the closed DTO its arguments must satisfy (the same class validates HTTP
 * queries, documents OpenAPI and, later, describes the tool to a model), and its execution for the
 * patient of `gate`, reading through `read` in one statement with the access probe (the cohort's
 * `gated*` reads): the gate decides on the probe before the tool sees any row, and the probe, the
 * tool's rows and the patient header share one statement of one transaction.
 */
export interface Tool<Query extends object = object> {
  readonly name: ToolName;
  readonly summary: string;
  readonly queryDto: Type<Query>;
  execute(read: CohortRead, gate: AccessGate, query: Query): Promise<ToolOutput & { patient: PatientRow }>;
  /**
   * Whether the patient has the data this tool is about (absent: always). A surface that lists tools
   * per patient (MCP) leaves out a tool that could only answer "nothing to evaluate".
   */
  availableFor?(chart: PatientChart): boolean;
}
