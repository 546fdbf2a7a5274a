import { Controller, Get, HttpCode, HttpStatus, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/roles.decorator';
import { ApiProblemResponses } from '../common/http/problem.dto';
import { LivenessDto, ReadinessDto, ReadinessQueryDto } from './health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Public()
@ApiProblemResponses()
@Controller('health')
export class HealthController {
  constructor(private readonly service: HealthService) {}

  @Get()
  @ApiOperation({ operationId: 'health_liveness', summary: 'Liveness: the process is up and serving HTTP.' })
  @ApiOkResponse({ type: LivenessDto })
  liveness(): LivenessDto {
    return this.service.liveness();
  }

  @Get('ready')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'health_readiness',
    summary: 'Readiness: the database and Redis, checked separately, and the backlog of effect deliveries.',
    description: 'Answers 503 only when the database is down; Redis down, a dead-lettered delivery or one waiting too long is reported as `degraded`.',
  })
  @ApiOkResponse({ type: ReadinessDto })
  @ApiServiceUnavailableResponse({ type: ReadinessDto })
  async readiness(@Query() query: ReadinessQueryDto, @Res({ passthrough: true }) res: FastifyReply): Promise<ReadinessDto> {
    const report = await this.service.readiness(query.timeoutMs);
    if (report.status === 'down') res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
