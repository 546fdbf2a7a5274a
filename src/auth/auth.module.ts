import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuditModule } from '../audit';
import { CohortModule } from '../cohort/cohort.module';
import { AuthGuard } from './auth.guard';
import { TokenService } from './token.service';

@Global()
@Module({
  imports: [CohortModule, AuditModule],
  providers: [TokenService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [TokenService],
})
export class AuthModule {}
