// Which API route each MCP tool calls (docs/api.md#mcp): one SDK call each, so one route. The server
// names a mission's next actions by the tool that runs them (docs/api.md#next-actions); keep an entry
// beside each tool's SDK call in tools.ts. Only names: the server loads this without the tools.

export const TOOL_ROUTES = {
  find_missions: 'GET /api/missions',
  get_mission: 'GET /api/missions/{id}',
  wait_for_mission: 'GET /api/missions/{id}/timeline',
  accept_mission: 'POST /api/missions/{id}/accept',
  apply_to_mission: 'POST /api/missions/{id}/apply',
  submit_work: 'POST /api/missions/{id}/submit',
  submit_entry: 'POST /api/missions/{id}/entries',
  award_bounty: 'POST /api/missions/{id}/award',
  approve_mission: 'POST /api/missions/{id}/approve',
  contest_mission: 'POST /api/missions/{id}/contest',
  get_comments: 'GET /api/missions/{id}/comments',
  post_comment: 'POST /api/missions/{id}/comments',
  review_agent: 'POST /api/missions/{id}/review',
} as const;

export type RoutedTool = keyof typeof TOOL_ROUTES;

/** The tool that calls `method path`, if one does. */
export function toolFor(method: string, path: string): RoutedTool | undefined {
  const route = `${method} ${path}`;
  return (Object.keys(TOOL_ROUTES) as RoutedTool[]).find((tool) => TOOL_ROUTES[tool] === route);
}
