import { Controller, Delete, Get, Inject, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessContext } from '../access/access-context';
import { Caller } from '../auth/caller';
import { AuditedAction, Public, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../common/roles';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RestAccess } from '../access/rest-access';
import { CurrentCaller, PatientIdParam } from '../access/rest-access';
import { McpEndpoint } from './mcp-endpoint';
import { MCP_PATH, McpChallengeFilter, protectedResourceMetadata, publicOrigin, WELL_KNOWN_RESOURCE } from './protected-resource';

/**
 * The MCP endpoint, one URL per patient: the session is bound to that patient, never chosen by the
 * model. Clinicians only, as the agent: results are a model's reading for a clinician, and
 * `propose_action` files in their name. Not in the OpenAPI document: it speaks JSON-RPC (MCP), not REST.
 */
@ApiExcludeController()
@Controller('mcp/patients/:patientId')
@UseFilters(McpChallengeFilter)
export class McpController {
  constructor(private readonly endpoint: McpEndpoint) {}

  @Post()
  @AuditedAction('mcp.session')
  @Roles(StaffRole.Clinician)
  post(@Req() request: FastifyRequest, @Res() response: FastifyReply, @RestAccess() access: AccessContext, @PatientIdParam() patientId: string): Promise<void> {
    return this.endpoint.post(request, response, access, patientId);
  }

  @Delete()
  @AuditedAction('mcp.session')
  @Roles(StaffRole.Clinician)
  delete(@Req() request: FastifyRequest, @Res() response: FastifyReply, @CurrentCaller() caller: Caller, @PatientIdParam() patientId: string): Promise<void> {
    return this.endpoint.delete(request, response, caller, patientId);
  }
}

/**
 * The MCP endpoint without a patient in the URL: the person chooses the session's patient in a form
 * their client shows them (MCP elicitation), once; the model never does. A client that cannot show
 * forms is told to use a patient's URL instead.
 */
@ApiExcludeController()
@Controller('mcp')
@UseFilters(McpChallengeFilter)
export class McpPickerController {
  constructor(private readonly endpoint: McpEndpoint) {}

  @Post()
  @AuditedAction('mcp.session')
  @Roles(StaffRole.Clinician)
  post(@Req() request: FastifyRequest, @Res() response: FastifyReply, @RestAccess() access: AccessContext): Promise<void> {
    return this.endpoint.post(request, response, access, null);
  }

  @Delete()
  @AuditedAction('mcp.session')
  @Roles(StaffRole.Clinician)
  delete(@Req() request: FastifyRequest, @Res() response: FastifyReply, @CurrentCaller() caller: Caller): Promise<void> {
    return this.endpoint.delete(request, response, caller, null);
  }
}

/** RFC 9728 metadata: for the whole API, and path-suffixed for the MCP resource (and its per-patient URLs). */
@ApiExcludeController()
@Controller(WELL_KNOWN_RESOURCE.slice(1))
export class ProtectedResourceController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @Public()
  api(@Req() request: FastifyRequest): Record<string, unknown> {
    return protectedResourceMetadata(this.config, publicOrigin(this.config, request), '/');
  }

  @Get(MCP_PATH.slice(1))
  @Public()
  mcp(@Req() request: FastifyRequest): Record<string, unknown> {
    return protectedResourceMetadata(this.config, publicOrigin(this.config, request), MCP_PATH);
  }

  @Get(`${MCP_PATH.slice(1)}/patients/:patientId`)
  @Public()
  mcpPatient(@Req() request: FastifyRequest): Record<string, unknown> {
    return protectedResourceMetadata(this.config, publicOrigin(this.config, request), MCP_PATH);
  }
}
