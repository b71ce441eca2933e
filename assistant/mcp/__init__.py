"""The MCP door: the guarded tools served to any MCP client (`calendar-assistant mcp`)."""
