import { NAME_MAX_LENGTH } from "../facts.js";

export default {
  music: "Music", effects: "Sound effects", volume: "Volume", contrast: "High-contrast tiles", theme: "Theme", system: "System",
  light: "Light", dark: "Dark", speed: "Auto-play speed", slow: "Slow", normal: "Normal", fast: "Fast",
  // The player section (player-ui.js).
  player: "Player", displayName: "Display name", saveName: "Save", nameSaved: "Saved: you are {name}. A daily challenge counts under the name you had when you started it.",
  nameCleared: "Your name is removed: you are anonymous, off the leaderboards.",
  anonymousNote: "Without a name you play anonymously and are not on the leaderboards.",
  hideMe: "Hide me from the leaderboards", hostHidden: "The host has hidden you from the leaderboards.",
  name_empty: "A name needs at least one character.", name_too_long: `A name has at most ${NAME_MAX_LENGTH} characters.`,
  name_no_letter: "A name needs at least one letter or digit.",
  name_spaces: "No space at the start or end, and never two in a row.",
  name_character: "A name cannot hold {c}: only letters, digits, single spaces and _ - . are allowed.",
  charShown: "“{ch}” ({about})", charHidden: "an invisible character ({about})",
  name_taken: "Someone else has that name.", invalid_request: "That name cannot be used.",
  moveDevice: "Move to another device", showCode: "Get a code",
  codeIs: "On the other device, enter this code within 15 minutes (it works once):",
  enterCode: "Code from your other device", useCode: "Use code", claimed: "This device is now that player.",
  code_unknown: "There is no such code.", code_expired: "That code has expired; get a new one.",
  code_used: "That code was used already; get a new one.", too_many_claims: "Too many tries; wait a minute.",
};
