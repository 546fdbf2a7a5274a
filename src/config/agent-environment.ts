import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { AuthEnvironmentVariables } from './auth-environment';
import { emptyToUndefined, toInt } from './transforms';

/**
 * The agent: its model endpoint and the limits of a turn. Part of the one schema
 * (`EnvironmentVariables` extends this); `loadConfig` reads them.
 */
export class AgentEnvironmentVariables extends AuthEnvironmentVariables {
  /**
   * The agent's model: any OpenAI-compatible chat-completions endpoint (hosted, or a local vLLM,
   * Ollama or llama.cpp server). Unset: no model is configured and the agent routes answer 503.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  AGENT_MODEL_BASE_URL?: string;

  /** Sent as the bearer token to the model endpoint; local servers usually need none. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AGENT_MODEL_API_KEY?: string;

  /** The model name the endpoint serves (required with AGENT_MODEL_BASE_URL). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AGENT_MODEL_NAME?: string;

  /** Model calls per turn; when spent the turn ends with what is grounded. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(50)
  AGENT_MAX_MODEL_CALLS = 6;

  /** Tool calls per turn; when spent the tools are withdrawn and the model must answer. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100)
  AGENT_MAX_TOOL_CALLS = 8;

  /** Wall time of a whole turn, model calls included; also each model request's timeout. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600000)
  AGENT_TIMEOUT_MS = 30000;

  /**
   * Model tokens (prompt + completion, as the endpoint reports them) per turn; when spent the turn
   * ends with what is grounded. Prompts grow with every tool result, so this caps cost per turn.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(2000000)
  AGENT_MAX_TOKENS = 60000;

  /** Agent turns one clinician may start in any rolling hour; further requests answer 429. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  AGENT_MAX_TURNS_PER_HOUR = 60;
}
