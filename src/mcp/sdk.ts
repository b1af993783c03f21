// The parts of the official MCP SDK the server uses, in one module: the build bundles it with the
// SDK into dist/mcp-sdk.js, which only `linewise mcp` loads (server.ts imports it with import()).

export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { CallToolRequestSchema, JSONRPCMessageSchema, ListToolsRequestSchema, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
export type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
