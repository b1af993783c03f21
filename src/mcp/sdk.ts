// The parts of the official MCP SDK the server uses, in one module: the build bundles it with the
// SDK into dist/mcp-sdk.js, which only `linewise mcp` loads (server.ts imports it with import()).

export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, ListToolsRequestSchema, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
