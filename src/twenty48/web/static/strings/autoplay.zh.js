export default {
  hintIs: "提示：{d}", hintsBusy: "求解器正忙于其他提示，稍后将重试。",
};
