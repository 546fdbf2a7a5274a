# syntax=docker/dockerfile:1
# Multi-stage build: compile with dev dependencies, ship only production dependencies and dist/.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY fixtures ./fixtures
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# Where the audit checkpoints and the checkpoint key go when volumes are mounted there (docker-compose.yml):
# writable by the app, the key's directory by the app alone (a new volume takes this owner and mode).
RUN mkdir -p /var/lib/vigil/audit-checkpoints /var/lib/vigil/secrets \
  && chown node:node /var/lib/vigil/audit-checkpoints /var/lib/vigil/secrets \
  && chmod 700 /var/lib/vigil/secrets
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
