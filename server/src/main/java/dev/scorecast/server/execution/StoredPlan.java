package dev.scorecast.server.execution;

import dev.scorecast.engine.plan.Plan;

/** A generated plan as kept: which video and analysis it came from, and the plan itself. */
public record StoredPlan(String id, String owner, String videoId, String analysisKey, Plan plan) {}
