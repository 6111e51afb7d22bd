/**
 * Texts the web keys on (docs/product.md §8, §13). Server and web import them from here so a
 * changed word cannot silently break the colour or flow that depends on it.
 */
export const MESSAGES = {
  authorized: 'Authorized',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  correctFlag: 'Correct Flag!',
  incorrectFlag: 'Incorrect Flag!',
  alreadySolved: 'You have already solved this challenge.',
  requestSent: 'Request Sent Successfully!',
  teamCreated: 'Team created Successfully!',
  teamUpdated: 'Team name updated successfully!',
  createDisabled: 'Challenge creation is currently disabled during the event.',
  siteInactive: 'The competition is not active right now. Please check back later.',
  challengeInactive: 'Challenge is currently Out-of-Order and will be back online soon!',
  /** After the end with the after-event setting 'closed'. */
  eventClosed: 'The event has ended.',
  /** After the end with the after-event setting 'practice': recorded apart, never scored. */
  correctPracticeFlag: 'Correct Flag! (practice: not scored)',
  noAttemptsLeft: 'No attempts left',
  hintUnlocked: 'Hint unlocked',
  challengeLocked: 'Solve the prerequisites of this challenge first.',
  /** 503 while the database cannot be reached (code 'unavailable'); the page shows it as it is. */
  databaseUnavailable:
    'The site cannot reach its database right now, so this was not saved. Please try again in a moment.',
  /** Writeups (issue 32): the refusals of POST /api/ctf/writeup, each naming its problem. */
  writeupSolveFirst: 'Solve this challenge first.',
  writeupsClosed: 'Writeups are closed.',
  writeupLinkOrFile: "Send a link in the field 'url' or a file in the field 'file'.",
  writeupLinkAndFile: 'Send either a link or a file, not both.',
  writeupLinkNotHttps: 'The link must be an https:// address.',
  writeupLinkTooLong: 'The link is too long: at most 2000 characters.',
  writeupFileTooLarge: 'The file is too large: at most 5 MB.',
  writeupFileEmpty: 'The file is empty.',
  writeupFileType: 'Only a PDF (.pdf) or a Markdown (.md) file is accepted.',
  writeupNotPdf: 'The file is not a PDF: it does not start with %PDF-.',
  writeupMarkdownNotText: 'The Markdown file is not UTF-8 text (it has invalid or NUL bytes).',
  writeupMarkdownIsHtml: 'The Markdown file is an HTML or SVG document, not Markdown.',
  writeupMalformed: 'The upload could not be read: the multipart body is malformed.',
} as const;

/** Client-side texts of docs/product.md §2/§5/§8. */
export const UI_TEXT = {
  pageLoading: 'Page Loading. . .',
  noCompletions: 'No completions yet',
  notOnTeam: "You're not on a Team.",
  noTeamsToJoin: 'No teams available to join. Create a new team instead!',
  selectTeam: 'Select a team to join...',
  noMembers: 'No members',
  noRequests: 'No Requests at this time',
  errorAddingMember: 'Error Adding Member!',
  errorRemovingMember: 'Error Removing Member!',
  errorSubmittingFlag: 'Error Submitting Flag.',
  errorRatingPage: 'Error Rating Challenge!',
  errorRatingChallenge: 'Error submitting rating',
  selectRating: 'Please select a rating',
  errorOccured: 'Error Occured!',
  uploadFailed: 'Upload failed',
  onlyZip: 'Only ZIP files are allowed. Invalid files: ',
  selectZip: 'Please select at least one ZIP file.',
  copyFailed: 'Copy failed — select and copy manually.',
  noChallenges: 'No challenges found',
  adjustFilters: 'Try adjusting your filters to see more challenges.',
  unknownAuthor: 'Unknown Author',
  eventStartsIn: 'Event Starts In',
  eventEndsIn: 'Event Ends In',
  eventEnded: 'Event has ended!',
  confirmLeave: 'Are you sure you want to leave your team?',
  confirmAccept: 'Are you sure?',
} as const;

/** Divisions (issue 19): what a pick, a join or an admin's list is refused with. */
export const DIVISION_MESSAGES = {
  picked: 'Division saved.',
  unknown: 'There is no division with that name.',
  emailNotAllowed: 'Your e-mail address is not in one of the domains this division is limited to.',
  lockedAfterSolve: 'Your division cannot change after your first solve.',
  teamDecides:
    "A team plays in its leader's division: leave your team to change yours (a leader alone on a team without solves may change it).",
  teamHasSolves: 'Your team has solves, so its division cannot change.',
  joinOtherDivision:
    "You can only join a team in your own division: this team plays in its leader's division.",
  acceptOtherDivision:
    "That user is in another division: a team accepts only members of its leader's division.",
  saved: 'Divisions saved.',
} as const;
