export default {
  hintIs: "Hint: {d}", hintsBusy: "The solver is busy with other hints; trying again in a moment.",
};
