import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { AuditChannel, AuditOutcome, AuditService } from '../audit';
import type { Command } from './commands';

/** The operating-system user running this process: who a command on the server is audited as. */
export function operatingSystemUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    // No passwd entry for the uid (some containers): the environment's word, or an honest unknown.
    return process.env.USER || process.env.LOGNAME || 'unknown';
  }
}

/**
 * A command that writes or drops PHI, audited as the operating-system user who ran it (channel
 * `cli`): one row per run, `success` for exit 0, `invalid` for a usage error (2), `error` otherwise.
 * Its arguments are not recorded (a file name can name a patient). `recordFirst`: for a command that
 * drops the trail itself (`revert --all`), the run it is given is recorded before it starts.
 */
export function auditedCommand(action: string, command: Command, recordFirst: (args: string[]) => boolean = () => false): Command {
  return {
    ...command,
    async run(dataSource, args, out) {
      const record = (outcome: AuditOutcome) =>
        new AuditService(dataSource).record({
          actorId: null,
          actorRole: 'cli',
          actorName: operatingSystemUser(),
          patientId: null,
          action,
          fields: [],
          rowCount: 0,
          outcome,
          channel: AuditChannel.Cli,
          correlationId: randomUUID(),
        });
      if (recordFirst(args)) {
        await record(AuditOutcome.Success);
        return command.run(dataSource, args, out);
      }
      let code: number;
      try {
        code = await command.run(dataSource, args, out);
      } catch (error) {
        await record(AuditOutcome.Error);
        throw error;
      }
      await record(code === 0 ? AuditOutcome.Success : code === 2 ? AuditOutcome.Invalid : AuditOutcome.Error);
      return code;
    },
  };
}
