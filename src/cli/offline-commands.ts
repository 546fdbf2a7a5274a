import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mcpBridgeCommand } from './mcp-bridge.command';
import { renderStatementsFile } from './statement-list';
import { tokenCommand } from './token.command';

/** Commands that need no database connection. */
export interface OfflineCommand {
  summary: string;
  usage: string;
  run(args: string[], out: (line: string) => void): Promise<number>;
}

/** The committed statement list, relative to the project root (the CLI runs from there via npm). */
export const STATEMENTS_FILE = join('src', 'database', 'statements.sql');

export const OFFLINE_COMMANDS: Record<string, OfflineCommand> = {
  token: {
    summary: 'mint a development bearer token for a staff user (refused when development auth is off)',
    usage: 'token <username> [--ttl seconds]',
    run: tokenCommand,
  },
  mcp: {
    summary: 'an MCP server on stdio forwarding to a running Vigil (for desktop MCP clients; signs in at the identity provider, holds no data)',
    usage: 'mcp --url <origin> [--patient <id>] [--client-id <id>] [--sign-in] [--token <t>]',
    run: (args) => mcpBridgeCommand(args),
  },
  'sql-sync': {
    summary: `write ${STATEMENTS_FILE}, the list of every SQL statement the service runs`,
    usage: 'sql-sync',
    async run(_args, out) {
      writeFileSync(STATEMENTS_FILE, renderStatementsFile());
      out(`Wrote ${STATEMENTS_FILE}.`);
      return 0;
    },
  },
};
