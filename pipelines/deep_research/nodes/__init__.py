"""Deep research's nodes: intake, planning, the central agent, the three delegated agents, the reporter."""
