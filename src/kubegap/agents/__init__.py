"""kubegap for coding agents: the MCP server command and client set-up for Claude Code and Codex."""
