"""The agent runtime, the worker side: the loop, the reply step, tools, prompts, the model client."""
